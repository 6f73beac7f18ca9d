/*
 * ctriton port FILE.py[:KERNEL,...] [-o OUT.c] [--signature SIG [--constexprs CX]] [--check]
 *
 * Writes the C port of a Python file's @triton.jit kernels (and the @jit helpers
 * they call), line for line (docs/port.md).  The translation is scripts/port.py,
 * run with Python (Python's own `ast` module reads the kernel; no Triton is
 * needed unless --check): found as $CTRITON_PORT_SCRIPT, $CTRITON_SOURCE_DIR/
 * scripts/port.py, share/ctriton/port.py beside the installed command, or this
 * build's source tree.  The Python is $CTRITON_PYTHON, else the venv of the
 * release --triton names (~/.cache/ctriton/venv-X.Y.Z), else ~/.cache/ctriton/
 * venv, else python3.  --check builds the port as a kernel plugin and runs the
 * fidelity harness on it with that Python's Triton.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char *output, *signature, *constexprs, *config_name, *verdicts;
static int num_warps, num_stages, jobs;
static bool check;
static const char *pos[1];
static int npos;

static const cli_opt opts[] = {
    {"output", 'o', CLI_STR, &output, "OUT.c", "write the C there (default: standard output)", 0, 0, NULL},
    {"signature", 0, CLI_STR, &signature, "SIG",
     "a config's signature (x_ptr=*fp32:16 n=i32): TL_CONFIGS gets it instead of a stub", 0, 0, NULL},
    {"constexprs", 0, CLI_STR, &constexprs, "CX", "the config's constexprs (BLOCK=1024 MODE='x')", 0, 0, NULL},
    {"config-name", 0, CLI_STR, &config_name, "NAME", "the config's name (default: default)", 0, 0, NULL},
    {"num-warps", 0, CLI_FN, &num_warps, "N", "the config's num_warps (default 4)", 0, 0, cli_num_warps},
    {"num-stages", 0, CLI_INT, &num_stages, "N", "the config's num_stages (default 3)", 1, 16, NULL},
    {"check", 0, CLI_FLAG, &check, NULL,
     "build the port and compare it with Python at every stage (needs Triton; one kernel)", 0, 0, NULL},
    {"verdicts", 0, CLI_STR, &verdicts, "FILE", "--check: also write the verdict table there", 0, 0, NULL},
    {"jobs", 0, CLI_INT, &jobs, "N", "--check: configs compiled at once (default: the cores)", 1, 256, NULL},
    CLI_OPT_TRITON,
    CLI_OPT_END,
};

const cli_spec port_spec = {
    "port", "FILE.py[:KERNEL,...] [-o OUT.c] [--signature SIG [--constexprs CX]] [--check]",
    "write the C port of a Python file's @triton.jit kernels, line for line",
    "Without KERNELs, every @triton.jit function no other one calls is a kernel.  A construct\n"
    "the kernel language cannot express is reported with its Python file and line, and no C\n"
    "is written.  Name the output like the Python module (matmul.py -> matmul.c): the helpers'\n"
    "TTIR names come from the C file's stem.  --check (with FILE.py:KERNEL and --signature)\n"
    "builds the port as a kernel plugin and prints the fidelity harness's verdict row.\n"
    "Python: $CTRITON_PYTHON, else ~/.cache/ctriton/venv-X.Y.Z for --triton X.Y.Z, else\n"
    "~/.cache/ctriton/venv, else python3.  docs/port.md.\n",
    opts, pos, 1, &npos, "FILE.py",
};

static bool readable(const char *p)
{
    return access(p, R_OK) == 0;
}

/* The directory of the running command, or "" */
static void self_dir(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    buf[n > 0 ? n : 0] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
    else
        buf[0] = 0;
}

static bool find_script(char *buf, size_t cap)
{
    const char *e = getenv("CTRITON_PORT_SCRIPT");
    if (e && *e) {
        snprintf(buf, cap, "%s", e);
        return readable(buf);
    }
    const char *src = getenv("CTRITON_SOURCE_DIR");
    if (src && *src) {
        snprintf(buf, cap, "%s/scripts/port.py", src);
        if (readable(buf))
            return true;
    }
    char dir[4096];
    self_dir(dir, sizeof dir);
#ifdef CTRITON_DATADIR_REL
    if (*dir) {
        snprintf(buf, cap, "%s/../%s/port.py", dir, CTRITON_DATADIR_REL);
        if (readable(buf))
            return true;
    }
#endif
#ifdef CTRITON_SOURCE_TREE
    snprintf(buf, cap, "%s/scripts/port.py", CTRITON_SOURCE_TREE);
    if (readable(buf))
        return true;
#endif
    return false;
}

static void find_python(char *buf, size_t cap)
{
    const char *e = getenv("CTRITON_PYTHON");
    if (e && *e) {
        snprintf(buf, cap, "%s", e);
        return;
    }
    const char *home = getenv("HOME");
    const char *rel = getenv("CTRITON_TRITON_VERSION");
    if (home && *home && rel && *rel) {
        snprintf(buf, cap, "%s/.cache/ctriton/venv-%s/bin/python", home, rel);
        if (access(buf, X_OK) == 0)
            return;
    }
    if (home && *home) {
        snprintf(buf, cap, "%s/.cache/ctriton/venv/bin/python", home);
        if (access(buf, X_OK) == 0)
            return;
    }
    snprintf(buf, cap, "python3");
}

int cmd_port(int argc, char **argv)
{
    int rc = cli_parse(&port_spec, argc, argv);
    if (rc != CLI_GO)
        return rc;
    if (!npos)
        return cli_fail(2, "port: missing FILE.py[:KERNEL,...]");
    if (check && !signature)
        return cli_fail(2, "port: --check needs --signature (and --constexprs): the config to compare");
    char script[4096], python[4096], self[4096];
    if (!find_script(script, sizeof script))
        return cli_fail(1, "port: cannot find port.py (set CTRITON_PORT_SCRIPT or CTRITON_SOURCE_DIR)");
    find_python(python, sizeof python);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    char nw[16], ns[16], nj[16];
    const char *args[32];
    int k = 0;
    args[k++] = python;
    args[k++] = script;
    args[k++] = pos[0];
    if (output)
        args[k++] = "-o", args[k++] = output;
    if (signature)
        args[k++] = "--signature", args[k++] = signature;
    if (constexprs)
        args[k++] = "--constexprs", args[k++] = constexprs;
    if (config_name)
        args[k++] = "--config-name", args[k++] = config_name;
    if (num_warps) {
        snprintf(nw, sizeof nw, "%d", num_warps);
        args[k++] = "--num-warps", args[k++] = nw;
    }
    if (num_stages) {
        snprintf(ns, sizeof ns, "%d", num_stages);
        args[k++] = "--num-stages", args[k++] = ns;
    }
    if (jobs) {
        snprintf(nj, sizeof nj, "%d", jobs);
        args[k++] = "--jobs", args[k++] = nj;
    }
    if (verdicts)
        args[k++] = "--verdicts", args[k++] = verdicts;
    if (check)
        args[k++] = "--check";
    if (*self)
        args[k++] = "--ctriton", args[k++] = self;
    args[k] = NULL;
    fflush(stdout);
    execvp(python, (char *const *)args);
    return cli_fail(1, "port: cannot run %s: %s", python, strerror(errno));
}
