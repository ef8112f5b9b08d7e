/* prompts.c: the project's own prompt set and the parser for a user's set. The
 * reference text is an invented plant operator's manual, original to tpsdb: dense
 * enough in facts, figures and procedure that each of the nine tasks after it
 * (code, explanation, summary, factual QA, translation, creative writing, stepwise
 * math, code review and extraction) has something real to work on. */
#include "collect/prompts.h"
#include "tpsdb.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct builtin {
	const char *name, *text;
};

static const char reference[] =
	"Operating notes for the Harrow Creek micro-hydro cooperative\n\n"
	"These notes are kept by the volunteers who run the small hydroelectric plant on "
	"Harrow Creek. They describe the plant as it stands after the 2019 refit, the "
	"routines that keep it running through the year, and the lessons the cooperative "
	"learned the hard way.\n\n"
	"1. The site\n\n"
	"Harrow Creek drops about forty-two metres over a stretch of eight hundred metres "
	"below the old mill pond. The cooperative diverts part of the flow at a low concrete "
	"weir at the top of that stretch. A screened intake leads the water into a buried "
	"penstock, a pipe of high-density polyethylene with an inner diameter of 450 "
	"millimetres, which runs down the east bank to the powerhouse. The powerhouse is a "
	"stone building that once held the mill's grinding gear; it now holds one crossflow "
	"turbine, a synchronous generator, the control cabinet and a workbench that is always "
	"more cluttered than anyone admits.\n\n"
	"The creek is fed by rain and by snowmelt from the hills to the north. Flow in the "
	"wettest weeks of spring can exceed 900 litres per second, and in a dry August it can "
	"fall below 60. The licence from the river authority lets the cooperative take at "
	"most 380 litres per second, and it must always leave at least 45 litres per second "
	"in the natural channel below the weir, whatever the season. This residual flow "
	"protects the trout that spawn in the gravel beds between the weir and the "
	"powerhouse, and the river authority checks it with a gauge the cooperative is not "
	"allowed to touch.\n\n"
	"2. How much power the plant makes\n\n"
	"The power a hydro plant can deliver is the product of the water's density, the "
	"acceleration due to gravity, the flow, the net head and the overall efficiency. At "
	"Harrow Creek the gross head is 42 metres, and friction in the penstock costs between "
	"2 and 5 metres depending on the flow, so the net head is usually taken as 39 metres "
	"at full flow. The turbine's efficiency is about 78 percent near its design point and "
	"drops quickly when the flow falls below a third of that point. The generator and the "
	"inverter together add losses of about 6 percent. At the licensed maximum of 380 "
	"litres per second, the plant therefore delivers a little over 100 kilowatts to the "
	"grid connection, and on a typical autumn day, with 200 litres per second available, "
	"it delivers a little over 50.\n\n"
	"Over a normal year the plant exports between 380 and 450 megawatt hours. The "
	"cooperative sells this energy to the regional distributor under a fixed tariff of "
	"11.2 cents per kilowatt hour, which was agreed in 2018 and runs until 2033. The "
	"income pays for insurance, maintenance, the loan that financed the refit, and a "
	"small fund for the village hall. In the drought year of 2022 the plant exported only "
	"298 megawatt hours, and the cooperative had to delay the repainting of the "
	"powerhouse roof.\n\n"
	"3. The daily round\n\n"
	"Every morning a volunteer walks up to the intake and back. The walk takes about "
	"forty minutes and follows a fixed list. At the intake, the volunteer clears the "
	"trash rack of leaves and branches, reads the level on the staff gauge, and checks "
	"that the residual flow notch is free. On the way down, the volunteer looks along the "
	"penstock route for wet ground, which can mean a leaking joint, and for fallen trees, "
	"which can mean a crushed pipe after the next storm. In the powerhouse, the volunteer "
	"reads the totaliser on the export meter, notes the turbine guide vane position, "
	"listens to the bearings, and writes everything into the logbook, the paper one first "
	"and the spreadsheet second.\n\n"
	"4. The control system\n\n"
	"The turbine is governed by a programmable controller in the cabinet. The controller "
	"keeps the water level in the forebay, the small basin at the top of the penstock, "
	"between two set points. When the level rises, it opens the guide vanes to take more "
	"water; when the level falls, it closes them. If the level falls below the low-low "
	"set point, the controller closes the vanes completely and stops the generator, "
	"because a penstock that drains can collapse under the vacuum that forms when the "
	"water column breaks. This has happened to other plants; it has not happened at "
	"Harrow Creek, and the set points are not to be changed without a decision of the "
	"technical committee.\n\n"
	"The controller writes a line to its event log every time something changes. Each "
	"line has a timestamp, an event code, the forebay level in centimetres, the vane "
	"opening in percent and the power in kilowatts, separated by semicolons. For example, "
	"a line reading 2023-10-14T06:12:09;VANE;118;64;71.5 means that at twelve minutes "
	"past six on the fourteenth of October 2023 the controller moved the vanes to 64 "
	"percent with the forebay at 118 centimetres, and the plant was then delivering 71.5 "
	"kilowatts. The codes in use are START, STOP, VANE, TRIP, LOWLEVEL and GRIDLOSS. A "
	"TRIP line always carries a reason after a sixth semicolon.\n\n"
	"5. Trips and restarts\n\n"
	"The plant trips, meaning it disconnects from the grid and shuts the vanes, when the "
	"grid voltage or frequency leaves its permitted band, when the generator overheats, "
	"or when the forebay falls too low. A grid trip clears itself: the controller waits "
	"five minutes after the grid has been stable and then restarts on its own. Any other "
	"trip needs a person. The volunteer on call must read the event log, find the reason, "
	"fix the cause if it is obvious, and restart the plant from the cabinet with the key. "
	"If the reason is not obvious, the volunteer must not restart more than once; a "
	"second trip with the same reason within an hour means the technical committee is "
	"called.\n\n"
	"In 2021 a family of otters built a den in the outflow channel and the rising "
	"tailwater caused a string of overheating trips that nobody could explain for a week. "
	"The den was moved, with permission, by a wildlife officer. The story is told to "
	"every new volunteer because it illustrates the cooperative's first rule: when the "
	"plant behaves strangely, look outside before opening the cabinet.\n\n"
	"6. Seasonal work\n\n"
	"In spring the main risk is debris. Snowmelt brings down branches faster than the "
	"trash rack can be cleared, and the morning walk may need to become a morning and "
	"evening walk for a few weeks. In summer the risk is low flow: the controller will "
	"stop the plant by itself, but volunteers should watch the residual flow notch "
	"closely, because the river authority's gauge has no tolerance for a cooperative that "
	"takes too much in a dry month. In autumn the leaves arrive, and the rack can block "
	"within hours after a windy night.\n\n"
	"Once a year, in the second half of August when the flow is lowest, the plant is shut "
	"down for a week. The penstock is drained slowly through the washout valve, the "
	"turbine runner is inspected for wear and cavitation pitting, the bearings are "
	"greased, and the generator windings are tested. The cooperative books an electrician "
	"for the winding test, because the insurance requires a certificate signed by a "
	"qualified person.";

static const struct builtin builtins[] = {
	{ "code",
	  "Using the event log format described in section 4 of the notes above, write a C "
	  "function that reads one log line, checks that it has the right number of fields for "
	  "its event code, and fills a struct with the timestamp, the code, the forebay level, "
	  "the vane opening, the power and, for TRIP lines, the reason. Return 0 on success and "
	  "-1 on a malformed line. Add a short test that feeds it three good lines and two bad "
	  "ones." },
	{ "explanation",
	  "Explain to a new volunteer, in plain words and without formulas, why the controller "
	  "stops the plant when the forebay level falls below the low-low set point, and why "
	  "the cooperative refuses to change the set points casually. Use the notes above as "
	  "your only source." },
	{ "summary",
	  "Summarise the operating notes above in about two hundred words for the cooperative's "
	  "annual report. Keep the figures that matter to members who do not work shifts: the "
	  "head, the licensed flow, the yearly energy, the tariff and the one rule that every "
	  "volunteer must remember." },
	{ "factual-qa",
	  "Answer the following questions from the notes above, one line each, and say \"not "
	  "stated\" when the notes do not give the answer. What is the inner diameter of the "
	  "penstock? What is the minimum residual flow? Which year had the lowest export, and "
	  "how much was it? Who tests the generator windings? What is the cooperative's first "
	  "rule?" },
	{ "translation",
	  "Translate section 5 of the notes above, \"Trips and restarts\", into French. Keep the "
	  "event codes such as TRIP and GRIDLOSS in English, keep every number exactly as "
	  "written, and use the formal register of a technical manual." },
	{ "creative",
	  "Write a short story of about four hundred words, set on the morning walk described "
	  "in section 3, in which a volunteer on her first solo shift notices something odd "
	  "along the penstock route. Stay true to the details of the site in the notes above, "
	  "and end the story in the powerhouse with the logbook open." },
	{ "math",
	  "Work step by step. Using the figures in section 2 of the notes above, estimate the "
	  "electrical power the plant delivers when 250 litres per second are available. Take "
	  "the density of water as 1000 kilograms per cubic metre, gravity as 9.81 metres per "
	  "second squared, a net head of 39 metres, a turbine efficiency of 78 percent and "
	  "combined generator and inverter losses of 6 percent. Then estimate the income from "
	  "one full day at that power under the tariff in the notes." },
	{ "code-review",
	  "Review the following Python function, written by a volunteer to total the exported "
	  "energy from the spreadsheet, as if it were a pull request. Point out every bug, "
	  "explain how each would show up in the monthly numbers, and propose a corrected "
	  "version.\n\n"
	  "def monthly_export(rows):\n"
	  "    total = 0\n"
	  "    last = rows[0][\"meter\"]\n"
	  "    for r in rows:\n"
	  "        if r[\"meter\"] < last:\n"
	  "            continue\n"
	  "        total = r[\"meter\"] - last\n"
	  "        last = r[\"meter\"]\n"
	  "    return total / 1000" },
	{ "extraction",
	  "Read the notes above and list every number that has a unit attached, as a JSON array "
	  "of objects with the fields \"value\", \"unit\", \"section\" and \"meaning\". Use numbers, "
	  "not strings, for the values, and give the section by its number." },
};

const char *prompts_reference(void)
{
	return reference;
}

void prompts_hash(const char *text, int chat, char hex[65])
{
	struct sha256 c;

	sha256_init(&c);
	if (chat)
		sha256_update(&c, "[chat]\n", 7);
	sha256_update(&c, text, strlen(text));
	sha256_final_hex(&c, hex);
}

static void add(struct prompt_set *ps, const char *name, const char *ref, const char *task,
		int chat)
{
	struct prompt_item *it;

	ps->v = tps_xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	it = &ps->v[ps->n++];
	it->name = tps_xstrdup(name);
	it->text = ref ? tps_xasprintf("%s\n\n%s", ref, task) : tps_xstrdup(task);
	prompts_hash(it->text, chat, it->hash);
}

void prompts_builtin(struct prompt_set *ps, int with_reference, int chat)
{
	size_t i;

	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		add(ps, builtins[i].name, with_reference ? reference : NULL, builtins[i].text,
		    chat);
}

void prompts_release(struct prompt_set *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->n; i++) {
		free(ps->v[i].name);
		free(ps->v[i].text);
	}
	free(ps->v);
	ps->v = NULL;
	ps->n = 0;
}

struct block {
	char *name;
	char *text;
	int line;
};

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return 0;
	}
	return 1;
}

/* The body between two headers without its leading and trailing blank lines. */
static char *body_dup(const char *from, const char *to)
{
	for (;;) {
		const char *p = from;
		while (p < to && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p < to && *p == '\n')
			from = p + 1;
		else
			break;
	}
	while (to > from && isspace((unsigned char)to[-1]))
		to--;
	return tps_xstrndup(from, (size_t)(to - from));
}

int prompts_parse(struct prompt_set *ps, const char *text, const char *file,
		  int with_reference, int chat, char *err, size_t errlen)
{
	struct block *b = NULL;
	size_t nb = 0, i, j;
	const char *line, *eol, *body = NULL;
	char *ref = NULL;
	int lineno = 0, ret = -1;

	for (line = text; line && *line; line = eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		lineno++;
		if (!strncmp(line, "## ", 3)) {
			const char *n = line + 3, *e = eol ? eol : line + strlen(line);
			char *name;
			while (n < e && isspace((unsigned char)*n))
				n++;
			while (e > n && isspace((unsigned char)e[-1]))
				e--;
			name = tps_xstrndup(n, (size_t)(e - n));
			if (strcmp(name, "@reference") && !valid_name(name)) {
				tps_fail(err, errlen,
					 "%s:%d: prompt name '%s' is not [A-Za-z0-9._-]+", file,
					 lineno, name);
				free(name);
				goto out;
			}
			for (i = 0; i < nb; i++) {
				if (!strcmp(b[i].name, name)) {
					tps_fail(err, errlen, "%s:%d: prompt '%s' appears twice "
						 "(first at line %d)", file, lineno, name,
						 b[i].line);
					free(name);
					goto out;
				}
			}
			if (nb)
				b[nb - 1].text = body_dup(body, line);
			b = tps_xrealloc(b, (nb + 1) * sizeof(*b));
			b[nb].name = name;
			b[nb].text = NULL;
			b[nb].line = lineno;
			nb++;
			body = eol ? eol + 1 : line + strlen(line);
			continue;
		}
		if (!nb) {
			const char *p = line;
			while (*p == ' ' || *p == '\t' || *p == '\r')
				p++;
			if (*p != '\n' && *p != '\0' && *p != '#') {
				tps_fail(err, errlen,
					 "%s:%d: text before the first '## <name>' line", file,
					 lineno);
				goto out;
			}
		}
	}
	if (nb)
		b[nb - 1].text = body_dup(body, text + strlen(text));
	for (i = 0, j = 0; i < nb; i++) {
		if (!*b[i].text) {
			tps_fail(err, errlen, "%s:%d: prompt '%s' is empty", file, b[i].line,
				 b[i].name);
			goto out;
		}
		if (!strcmp(b[i].name, "@reference"))
			ref = b[i].text;
		else
			j++;
	}
	if (!j) {
		tps_fail(err, errlen, "%s: no prompts (each starts with a line '## <name>')", file);
		goto out;
	}
	for (i = 0; i < nb; i++) {
		if (strcmp(b[i].name, "@reference"))
			add(ps, b[i].name, with_reference ? (ref ? ref : reference) : NULL,
			    b[i].text, chat);
	}
	ret = 0;
out:
	for (i = 0; i < nb; i++) {
		free(b[i].name);
		free(b[i].text);
	}
	free(b);
	return ret;
}
