#!/usr/bin/env python3
"""Triton's own interpreter tests, unchanged, under TRITON_INTERPRET=1 and
CTRITON_INTERPRET=1 on the same machine in the same run: pass / fail / skip /
error counts and total times of each, and every test that passes under the
interpreter but not under ctriton, with its message.

    python bench/peer_tests.py --tests TRITON/python/test/unit \\
        [--files language/test_standard.py,language/test_random.py] [-k EXPR] [-n 2]
        [--sides interp,ctriton] [--save results.json] [--markdown]

--tests is the python/test/unit folder of a Triton checkout of the installed
release (the tests are not part of the Triton wheel: scripts/peer_tests_fetch.sh
gets them); the files are the ones Triton's CI runs under TRITON_INTERPRET=1
(its Makefile's test-interpret target), with `-m interpreter --device cpu` as
there.  pytest's --confcutdir is the checkout's python/test, whose conftest.py
gives --device.  Needs pytest, PyTorch, SciPy (test_random.py) and the ctriton
package installed (make python-test makes such a venv:
~/.cache/ctriton/venv-pkg).  The whole list takes hours under the interpreter
on two cores: it is a benchmark (make peer-tests), not a test; make
peer-subset runs a representative part under CTRITON_INTERPRET=1 only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
# Triton 3.6.0's Makefile, test-interpret (the two node ids there carry no interpreter mark:
# -m interpreter deselects them, as in Triton's CI; the tutorial is named by its file, since
# a node id pytest cannot collect (its module needs a GPU driver under the interpreter) stops
# the whole run)
DEFAULT_FILES = ("cuda,language/test_core.py,language/test_standard.py,language/test_random.py,"
                 "language/test_block_pointer.py,language/test_subprocess.py,language/test_line_info.py,"
                 "language/test_tuple.py,runtime/test_launch.py,runtime/test_autotuner.py::test_kwargs[False],"
                 "../../tutorials/06-fused-attention.py")


def run(mode, tests, files, kexpr, jobs, timeout):
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    env.pop("CTRITON_INTERPRET", None)
    env[{"interp": "TRITON_INTERPRET", "ctriton": "CTRITON_INTERPRET"}[mode]] = "1"
    xml = tempfile.mktemp(suffix=".xml", prefix="peer-%s-" % mode)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "interpreter", "--device", "cpu",
           "--junitxml", xml, "-o", "junit_family=xunit1", "--continue-on-collection-errors"] + files
    # bench/peer_plugin.py: --device and its fixture where the checkout has no conftest.py,
    # and the helpers forks' copies import that stock Triton lacks
    env["PYTHONPATH"] = os.pathsep.join([HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    cmd[3:3] = ["-p", "peer_plugin"]
    parent = os.path.dirname(os.path.abspath(tests))
    for d in (parent, tests):  # Triton's python/test/conftest.py, or a fork's unit/conftest.py
        if os.path.exists(os.path.join(d, "conftest.py")):
            env["CTRITON_PEER_HAS_CONFTEST"] = "1"
            cmd[3:3] = ["--confcutdir", os.path.abspath(d)]
            break
    else:
        cmd[3:3] = ["--confcutdir", os.path.abspath(tests)]
    if kexpr:
        cmd += ["-k", kexpr]
    if jobs > 1:
        cmd += ["-n", str(jobs)]
    t = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=tests, env=env, capture_output=True, text=True, timeout=timeout)
        rc, tail = p.returncode, (p.stdout + p.stderr)[-3000:]
    except subprocess.TimeoutExpired:
        rc, tail = "timeout", ""
    seconds = time.perf_counter() - t
    results = {}
    if os.path.exists(xml):
        for case in ET.parse(xml).getroot().iter("testcase"):
            name = "%s::%s" % (case.get("file") or case.get("classname"), case.get("name"))
            verdict, msg = "passed", ""
            for child in case:
                if child.tag in ("failure", "error", "skipped"):
                    verdict = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                    msg = (child.get("message") or "").splitlines()[0][:200] if child.get("message") else ""
                    break
            results[name] = (verdict, msg)
        os.unlink(xml)
    return results, seconds, rc, tail


def counts(results):
    c = {"passed": 0, "failed": 0, "skipped": 0, "error": 0}
    for v, _ in results.values():
        c[v] += 1
    return c


def only_ctriton(side, a):
    """The CI's check: every test passes or skips under CTRITON_INTERPRET=1 but the
    ones --expect lists, and pytest ended (no crash of the process)."""
    results, seconds, rc, tail = side
    c = counts(results)
    print("CTRITON_INTERPRET=1: %d passed, %d failed, %d skipped, %d error in %.1f s" % (
        c["passed"], c["failed"], c["skipped"], c["error"], seconds))
    expected = set()
    if a.expect:
        with open(a.expect) as f:
            expected = {ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()}
    bad = sorted(n for n, (v, _) in results.items() if v in ("failed", "error") and n not in expected)
    for n in bad:
        print("FAILED %s: %s" % (n, results[n][1]))
    if rc not in (0, 1):  # pytest: 0 all passed, 1 some failed; else interrupted, crashed, timed out
        print("pytest did not finish (exit %s):\n%s" % (rc, tail))
        return 1
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests", required=True, help="a Triton checkout's python/test/unit")
    ap.add_argument("--files", default=DEFAULT_FILES, help="comma-separated, relative to --tests")
    ap.add_argument("-k", default=None, help="pytest -k expression (a subset)")
    ap.add_argument("-n", type=int, default=1, help="pytest-xdist workers for each side")
    ap.add_argument("--timeout", type=int, default=3 * 3600, help="seconds per side")
    ap.add_argument("--sides", default="interp,ctriton", help="which modes run: interp, ctriton or both")
    ap.add_argument("--load", default=None, help="a --save file: the sides it holds are not run again")
    ap.add_argument("--save", default=None, help="write each side's results and time (JSON)")
    ap.add_argument("--expect", default=None,
                    help="with --sides ctriton: a file of the tests known to fail under ctriton, one node id "
                         "a line (# comments); exit 1 on any other failure or error, or a crash")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    files = [f for f in a.files.split(",") if os.path.exists(os.path.join(a.tests, f.split("::")[0]))]
    if not files:
        sys.exit("peer_tests: none of %s under %s" % (a.files, a.tests))
    sides = {}
    if a.load:
        with open(a.load) as f:
            for mode, d in json.load(f).items():
                sides[mode] = ({k: tuple(v) for k, v in d["results"].items()}, d["seconds"], d["rc"], "")
    for mode in a.sides.split(","):
        if mode in sides:
            continue
        sides[mode] = run(mode, a.tests, files, a.k, a.n, a.timeout)
        if not sides[mode][0]:
            sys.exit("peer_tests: the %s run reported no test (exit %s):\n%s" % (mode, sides[mode][2],
                                                                                 sides[mode][3]))
        if a.save:
            with open(a.save, "w") as f:
                json.dump({m: {"results": r[0], "seconds": r[1], "rc": r[2]} for m, r in sides.items()}, f)
    if "interp" not in sides:
        return only_ctriton(sides["ctriton"], a)
    if "ctriton" not in sides:
        print("TRITON_INTERPRET=1: %s in %.1f s" % (counts(sides["interp"][0]), sides["interp"][1]))
        return 0
    ri, ti = sides["interp"][0], sides["interp"][1]
    rc, tc = sides["ctriton"][0], sides["ctriton"][1]
    ci, cc = counts(ri), counts(rc)
    regress = sorted(n for n, (v, _) in ri.items() if v == "passed" and rc.get(n, ("missing",))[0] != "passed")
    gained = sorted(n for n, (v, _) in rc.items() if v == "passed" and ri.get(n, ("missing",))[0] != "passed")
    import triton
    import numpy
    out = print
    if a.markdown:
        out("Files: %s%s. Triton %s, NumPy %s, %d core(s), %s." % (
            ", ".join(files), " (-k %s)" % a.k if a.k else "", triton.__version__, numpy.__version__,
            os.cpu_count(), "pytest -n %d" % a.n if a.n > 1 else "one pytest process each"))
        out("")
        out("| mode | passed | failed | skipped | error | total time (s) |")
        out("|---|---|---|---|---|---|")
        for name, c, t in (("TRITON_INTERPRET=1", ci, ti), ("CTRITON_INTERPRET=1", cc, tc)):
            out("| %s | %d | %d | %d | %d | %.1f |" % (name, c["passed"], c["failed"], c["skipped"], c["error"], t))
        out("")
        out("Time ratio (interpreter / ctriton): %.1fx. Passing under the interpreter but not under ctriton: %d; "
            "passing under ctriton only: %d." % (ti / tc if tc else 0, len(regress), len(gained)))
        if regress:
            out("")
            out("| test | under ctriton | message |")
            out("|---|---|---|")
            for n in regress:
                v, m = rc.get(n, ("missing", ""))
                out("| `%s` | %s | %s |" % (n, v, m.replace("|", "\\|")))
    else:
        out("interp  %s  %.1f s" % (ci, ti))
        out("ctriton %s  %.1f s" % (cc, tc))
        for n in regress:
            out("REGRESSION %s: %s" % (n, rc.get(n, ("missing", ""))))
    return 1 if regress else 0


if __name__ == "__main__":
    sys.exit(main())
