#!/usr/bin/env python3
# check_sinks.py <kind>:<file>...: asserts that each output of tpsdb is safe for its sink
# (tests/cli/t0760-sinks-hostile.sh). kind: text (no raw escape or control byte, no
# C1, valid UTF-8, no line that GitHub reads as a workflow command), github (every
# line one of gate's own commands), json (json.loads accepts it), svg (XML parses),
# md (the text rules, and every markdown table row has its header's cell count),
# junit (valid UTF-8, no control character XML cannot carry and no C1, XML parses,
# every test case has its class and name).
import re
import sys
import xml.etree.ElementTree as ET

kind = path = raw = None


def fail(msg):
    sys.exit('FAIL %s %s: %s' % (kind, path, msg))


def text_rules(data, allow_commands=False):
    try:
        s = data.decode('utf-8')
    except UnicodeDecodeError as e:
        fail('not valid UTF-8: %s' % e)
    for ch in s:
        o = ord(ch)
        if (o < 0x20 and ch not in '\n\t') or o == 0x7f or 0x80 <= o <= 0x9f:
            fail('raw control character U+%04X' % o)
    if not allow_commands:
        for line in s.split('\n'):
            if line.lstrip().startswith('::'):
                fail('a line GitHub reads as a workflow command: %r' % line)
    return s


def check():
    if kind == 'text':
        text_rules(raw)
    elif kind == 'github':
        s = text_rules(raw, allow_commands=True)
        for line in s.split('\n'):
            if line and not re.match(r'^::(error title=tpsdb gate|warning)::', line):
                fail('a line that is not one of gate\'s commands: %r' % line)
            if re.search(r'::(add-mask|error file|notice)', line):
                fail('a forged command inside a message: %r' % line)
    elif kind == 'json':
        import json
        try:
            json.loads(raw.decode('utf-8'))
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            fail('json.loads: %s' % e)
    elif kind == 'svg':
        try:
            ET.fromstring(raw)
        except ET.ParseError as e:
            fail('not XML: %s' % e)
    elif kind == 'junit':
        try:
            s = raw.decode('utf-8')
        except UnicodeDecodeError as e:
            fail('not valid UTF-8: %s' % e)
        for ch in s:
            o = ord(ch)
            if (o < 0x20 and ch not in '\n\t\r') or o == 0x7f or 0x80 <= o <= 0x9f:
                fail('raw control character U+%04X' % o)
        try:
            root = ET.fromstring(raw)
        except ET.ParseError as e:
            fail('not XML: %s' % e)
        cases = root.findall('./testsuite/testcase')
        if not cases:
            fail('no testcase')
        for c in cases:
            if not c.get('classname', '').startswith('tpsdb.') or not c.get('name'):
                fail('a testcase without its class or name: %r' % c.attrib)
    elif kind == 'md':
        s = text_rules(raw)
        want = None
        for line in s.split('\n'):
            if not line.startswith('|'):
                want = None
                continue
            cells = len(re.findall(r'(?<!\\)\|', line))
            if want is None:
                want = cells
            elif cells != want:
                fail('a table row with %d pipes, its header %d: %r' % (cells, want, line))
    else:
        fail('unknown kind')


for arg in sys.argv[1:]:
    kind, path = arg.split(':', 1)
    raw = open(path, 'rb').read()
    check()
if len(sys.argv) < 2:
    fail('no files given')
