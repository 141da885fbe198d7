# SPDX-License-Identifier: MIT
"""xwflood, the ten lines docs/examples.md quotes: 200,000 NoOperation requests and the round
trip after them complete against Xvfb, and it says how fast."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import Xvfb, check, main, run  # noqa: E402


def flood():
    with Xvfb() as x:
        status, out, err = run([sys.argv[1], "200000"], env=x.env())
        check(status == 0 and err == "", "xwflood exited with %d: %s" % (status, err))
        check(re.fullmatch(r"xwflood: 200000 NoOperation requests and one round trip in [0-9.]+ s "
                           r"\([0-9.]+ M/s\)\n", out), "output %r" % out)
        print(out.strip())
        # The same through -display, as the other examples take it.
        status, out, err = run([sys.argv[1], "-display", x.name, "1000"])
        check(status == 0 and out.startswith("xwflood: 1000 NoOperation"), "-display: %d %r %r" % (status, out, err))


main(flood)
