#!/usr/bin/env python3
"""List the public API of the `primekit` crate, one path per line with its kind and tier,
from rustdoc's JSON output (needs a nightly toolchain):

    CARGO_TARGET_DIR=target/nightly cargo +nightly rustdoc -p primekit --lib -- \
        -Z unstable-options --output-format json
    python3 tools/public_api.py target/nightly/doc/primekit.json

Tier: `root` for items reachable from the crate root outside `hazmat` (the knob-free API
and the `keys` audits), `hazmat` for the expert tier. Public methods of public types are
listed under their type.
"""
import json
import sys


def main(path):
    d = json.load(open(path))
    index = d["index"]

    def item(i):
        return index.get(str(i))

    out = []

    def kind_of(it):
        return next(iter(it["inner"].keys()))

    def methods(it):
        inner = it["inner"]
        k = kind_of(it)
        impls = inner.get(k, {}).get("impls", []) if isinstance(inner.get(k), dict) else []
        names = []
        for imp in impls:
            im = item(imp)
            if not im:
                continue
            body = im["inner"]["impl"]
            if body.get("trait") is not None or body.get("synthetic") or body.get("blanket_impl"):
                continue
            for f in body["items"]:
                fi = item(f)
                if fi and fi.get("visibility") == "public" and fi.get("name"):
                    names.append(fi["name"])
        return sorted(set(names))

    def walk(mod_id, prefix, tier, seen):
        m = item(mod_id)
        for i in m["inner"]["module"]["items"]:
            it = item(i)
            if it is None or it.get("visibility") != "public":
                continue
            k = kind_of(it)
            if k == "use":
                u = it["inner"]["use"]
                target = item(u["id"]) if u.get("id") is not None else None
                name = u["name"]
                if u.get("is_glob"):
                    if target and kind_of(target) == "module":
                        walk(u["id"], prefix, tier, seen)
                    continue
                if target is None:
                    out.append((f"{prefix}::{name}", "external", tier, []))
                    continue
                it, k = target, kind_of(target)
                if k == "module":
                    walk(u["id"], f"{prefix}::{name}", tier, seen)
                    continue
            else:
                name = it["name"]
            if k == "module":
                walk(i, f"{prefix}::{name}", "hazmat" if name == "hazmat" else tier, seen)
                continue
            p = f"{prefix}::{name}"
            if p in seen:
                continue
            seen.add(p)
            out.append((p, k, tier, methods(it) if k in ("struct", "enum") else []))

    walk(d["root"], "primekit", "root", set())
    for p, k, tier, ms in sorted(out, key=lambda x: (x[2] != "root", x[0])):
        line = f"{tier:7} {k:9} {p}"
        if ms:
            line += "  (" + ", ".join(ms) + ")"
        print(line)
    print(f"# {sum(1 for o in out if o[2] == 'root')} root items, {sum(1 for o in out if o[2] == 'hazmat')} hazmat items")


if __name__ == "__main__":
    main(sys.argv[1])
