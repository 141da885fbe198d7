# SPDX-License-Identifier: MIT
"""tracecmp.py — xwire's trace (JSON lines, XWIRE_TRACE_NUMBERS=1) and xtrace's log
of the same run compared: both saw the same bytes, so per connection the requests
must be the same, in the same order, under the same sequence numbers and names, and
wherever xtrace decodes a field that xwire names alike (after a normaliser: lower
case, '-' and ' ' as '_'), the values must be equal. Requests xtrace leaves UNKNOWN
are counted: what xwire decodes that xtrace cannot. Used by trace_vs_xtrace.py and by
corpus.py's xwire runs. Standard library only."""
import json
import re

# xtrace: "000:<:0001: 20: Request(98): QueryExtension name='BIG-REQUESTS'"; past 0xffff
# the sequence goes on widened (10000), as xwire's does.
XT_REQ = re.compile(r"^(\d+):<:([0-9a-f]{4,}):\s*(\d+): (?:(.+?)-)?Request\((\d+)(?:,(\d+))?\): (\S+) ?(.*)$")
XT_FIELD = re.compile(r"(?:^| )([A-Za-z][A-Za-z0-9 _-]*?)=('(?:[^'\\]|\\.)*'|\{[^}]*\}|[^ ]+)")
# A list as xtrace prints it, to its closing ';': elements ({x=0 y=2},{...}) or bytes
# (0x01,0x02). Taken out before fields are read, so that an element's fields are not
# taken for the request's (and a long list costs nothing to skip).
XT_LIST = re.compile(r"=(?:\{[^;]*|(?:0x[0-9a-f]+,)+0x[0-9a-f]+);")
# xtrace prints an event inside a request (SendEvent's) as a bare "ConfigureNotify(22)"
# and the event's own fields after it: those are not the request's.
XT_EMBEDDED = re.compile(r"(?:^| )[A-Za-z]\w*\(\d+\)(?= |$)")
# xwire's string shortened past XWIRE_TRACE_MAXLIST: its head, then "...(full length)".
XW_SHORT = re.compile(r"^([\s\S]*)\.\.\.\((\d+)\)$")
# xtrace spells GLX's requests with a prefix the XML does not have (glXQueryVersion).
XT_NAME_PREFIX = {"GLX": "glX"}
# xtrace decodes the request after this note from a full buffer, possibly from part of its bytes.
XT_CUT = "Warning: buffer filled!"


def trace_env(path):
    """The environment that has xwire trace into path in the form read_xwire reads."""
    return {"XWIRE_TRACE": path, "XWIRE_TRACE_FORMAT": "json", "XWIRE_TRACE_NUMBERS": "1", "XWIRE_TRACE_MAXLIST": "4"}


def norm_key(k):
    return re.sub(r"[ -]", "_", k).lower()


def xt_value(v):
    """A number (or a string) from xtrace's spelling of a value, None for lists."""
    if v.startswith("'"):
        return v[1:-1]
    if v.startswith("{"):
        return None
    m = re.match(r"^[A-Za-z_][\w]*\((0x[0-9a-f]+|-?\d+)\)$", v)  # name(0x01)
    if m:
        return int(m.group(1), 0)
    m = re.match(r"^(0x[0-9a-f]+|-?\d+)", v)  # 0x17("NAME"), 12, -3
    if m:
        return int(m.group(1), 0)
    return None


def read_xtrace(path):
    """Per connection (in xtrace's numbering), its requests as (seq, extension, name, fields)."""
    conns = {}
    cut = False
    try:
        f = open(path, errors="replace")
    except FileNotFoundError:
        return []
    with f:
        for line in f:
            if XT_CUT in line:
                cut = True
                continue
            m = XT_REQ.match(line.rstrip("\n"))
            if not m:
                continue
            conn, seq, _, ext, _, _, name, rest = m.groups()
            rest = XT_EMBEDDED.split(XT_LIST.sub("={}", rest), 1)[0]
            fields = {} if cut else {norm_key(k): xt_value(v) for k, v in XT_FIELD.findall(rest)}
            cut = False
            if ext in XT_NAME_PREFIX and name.startswith(XT_NAME_PREFIX[ext]):
                name = name[len(XT_NAME_PREFIX[ext]):]
            conns.setdefault(conn, []).append((int(seq, 16), ext, name, fields))
    return [conns[k] for k in sorted(conns)]


def read_xwire(path):
    """Per connection (in the order they connected), its requests as (seq, name, fields)."""
    conns = {}
    try:
        f = open(path)
    except FileNotFoundError:
        return []
    with f:
        for line in f:
            o = json.loads(line)
            if o["kind"] != "request":
                continue
            name = o["name"].split(":")[-1]
            fields = {norm_key(k): v for k, v in o["fields"].items()}
            conns.setdefault(o["conn"], []).append((o["seq"], name, fields))
    return [conns[k] for k in sorted(conns)]


class Result:
    """What one or more comparisons found: requests (as xwire traced them), fields
    compared, fields xtrace names otherwise, the differences, and the requests xtrace
    left UNKNOWN by 'Extension:Request'; the other way round, requests xtrace names
    that xwire's descriptions leave out (xwire prints the minor opcode), and 64-bit
    values xtrace reads high word first where the protocol has them in the client's
    byte order (both: see docs/tracing.md)."""

    def __init__(self):
        self.requests, self.compared, self.unmatched, self.xt_swapped = 0, 0, 0, 0
        self.problems, self.unknown, self.xw_unknown = [], {}, {}

    def add(self, other, label=""):
        self.requests += other.requests
        self.compared += other.compared
        self.unmatched += other.unmatched
        self.xt_swapped += other.xt_swapped
        self.problems += [label + p for p in other.problems]
        for mine, theirs in ((self.unknown, other.unknown), (self.xw_unknown, other.xw_unknown)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v

    def summary(self, case):
        return ("%-12s %5d requests%s; %5d fields compared (%d named otherwise by xtrace), %d differ" %
                (case, self.requests, ", same names, order and sequences" if not self.problems else " (see below)",
                 self.compared, self.unmatched, len(self.problems)) +
                ("; %d 64-bit values xtrace reads high word first" % self.xt_swapped if self.xt_swapped else ""))

    def unknown_text(self, which=None):
        return ", ".join("%s (%d)" % kv for kv in sorted((self.unknown if which is None else which).items()))

    def notes(self, case):
        """What one side decodes and the other cannot, one line each."""
        out = []
        if self.unknown:
            out.append("%s: xwire decodes, xtrace leaves UNKNOWN: %s" % (case, self.unknown_text()))
        if self.xw_unknown:
            out.append("%s: xtrace names, xwire's descriptions leave out: %s"
                       % (case, self.unknown_text(self.xw_unknown)))
        return out


def swapped64(v):
    return (v & 0xFFFFFFFF) << 32 | v >> 32


def same(xt, xw, r):
    """xtrace's value against xwire's: a shortened xwire string by its head and length;
    xtrace reads a CARD64 as two CARD32, high word first, where Present sends a CARD64
    whole in the client's byte order (checked on the wire: xwire's value is right)."""
    short = isinstance(xw, str) and isinstance(xt, str) and XW_SHORT.match(xw)
    if short:
        return xt.startswith(short.group(1)) and len(xt) == int(short.group(2))
    if isinstance(xw, int) and isinstance(xt, int) and xt != xw and 0 <= xw < 1 << 64 and swapped64(xw) == xt:
        r.xt_swapped += 1
        return True
    return xt == xw


def compare_fields(seq, name, fa, fb, r):
    for k, v in fa.items():
        if v is None:
            continue
        if k not in fb or not isinstance(fb[k], (int, str)) or isinstance(fb[k], bool):
            r.unmatched += 1  # xtrace's name for it is not the XML's
            continue
        r.compared += 1
        if not same(v, fb[k], r):
            r.problems.append("#%d %s %s: xtrace %r, xwire %r" % (seq, name, k, v, fb[k]))


def compare(xt, xw):
    """xtrace's connections against xwire's, matched in order (both number them as
    they connect): a Result."""
    r = Result()
    r.requests = sum(len(c) for c in xw)
    if len(xt) != len(xw):
        r.problems.append("connections: xtrace %d, xwire %d" % (len(xt), len(xw)))
    for i, (a, b) in enumerate(zip(xt, xw)):
        if len(a) != len(b):
            r.problems.append("connection %d: requests: xtrace %d, xwire %d" % (i, len(a), len(b)))
        for (sa, ext, na, fa), (sb, nb, fb) in zip(a, b):
            if sa != sb:
                r.problems.append("sequence %d (xtrace) against %d (xwire) at %s" % (sa, sb, na))
                break
            if nb.isdigit() and na != "UNKNOWN":
                key = "%s:%s" % (ext, na)
                r.xw_unknown[key] = r.xw_unknown.get(key, 0) + 1
            elif na == "UNKNOWN":
                key = "%s:%s" % (ext, nb)
                r.unknown[key] = r.unknown.get(key, 0) + 1
            elif na != nb:
                r.problems.append("#%d: xtrace %s, xwire %s" % (sa, na, nb))
            else:
                compare_fields(sa, na, fa, fb, r)
    return r


def compare_files(xtrace_path, xwire_path):
    return compare(read_xtrace(xtrace_path), read_xwire(xwire_path))
