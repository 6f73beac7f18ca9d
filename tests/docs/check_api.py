#!/usr/bin/env python3
"""docs-check, the API reference: every public function of include/ctriton
(scripts/gen_api_doc.py's reading of the headers; the kernel language's builtins
are the cheat-sheet's) appears in docs/api.md, and every public header wraps its
declarations in CT_BEGIN_DECLS/CT_END_DECLS (include/ctriton/export.h), without
which the shared library would not export them.  Exit 1 with what is missing."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import gen_api_doc  # noqa: E402

api = open(os.path.join(ROOT, "docs", "api.md")).read()
documented = set(re.findall(r"\b((?:ct|tl)_[A-Za-z0-9_]+)\s*\(", api))
missing, unexported, total = [], [], 0
for h in gen_api_doc.headers():
    text = open(os.path.join(gen_api_doc.INCLUDE, h)).read()
    # tl_macros.h: preprocessor macros only, nothing to export
    if h not in ("export.h", "ctriton.h", "tl_macros.h") and ("CT_BEGIN_DECLS" not in text or "CT_END_DECLS" not in text):
        unexported.append(h)
    if h in gen_api_doc.ELSEWHERE:
        continue
    for f in gen_api_doc.public_functions(h):
        total += 1
        if f not in documented:
            missing.append("%s (ctriton/%s)" % (f, h))
if unexported:
    print("public headers without CT_BEGIN_DECLS/CT_END_DECLS (their functions are not exported):")
    for h in unexported:
        print("  include/ctriton/" + h)
if missing:
    print("public functions missing from docs/api.md (run `make api-doc`, after commenting them):")
    for m in missing:
        print("  " + m)
if unexported or missing:
    sys.exit(1)
print("docs/api.md: all %d public functions of include/ctriton (tl.h: the cheat-sheet)" % total)
