/* interrupt.h: how 'tpsdb collect' notices SIGINT, SIGTERM and SIGHUP. The handler
 * only records the signal; every wait (a request in flight, a server loading, a
 * grace period, any child run through proc.c) polls interrupt_pending() and
 * unwinds, so the servers are stopped and the current run is marked 'interrupted'
 * by ordinary code, not by a handler. */
#ifndef COLLECT_INTERRUPT_H
#define COLLECT_INTERRUPT_H

/* Installs the handlers (without SA_RESTART, so sleeps wake up), ignores SIGPIPE
 * and hands the flag to proc_interrupt_flag(). The first install clears any
 * earlier pending signal; a second one before interrupt_restore() keeps it. */
void interrupt_install(void);
/* Puts back the dispositions interrupt_install() found. Safe without install. */
void interrupt_restore(void);
/* The number of the first signal caught since interrupt_install(), or 0. */
int interrupt_pending(void);
/* Sleeps ms milliseconds, returning early (with -1) when a signal is pending. */
int interrupt_sleep_ms(double ms);

#endif
