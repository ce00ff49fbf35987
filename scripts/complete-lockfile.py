#!/usr/bin/env python3
"""Adds lock entries for the other platforms' optional native packages: unrs-resolver's bindings (jest 30) and
the @install-binary/* builds of kustomize (the Kubernetes manifests' validation).

The registry reachable here serves only the linux builds, so `npm install` writes a lockfile without
the others, and `npm ci` (npm 11) then refuses it as out of sync. The entries added here carry the
platform fields only: npm skips them on a non-matching platform and never fetches them.
Run after any `npm install` that rewrites package-lock.json.
"""
import json, re, sys

path = sys.argv[1] if len(sys.argv) > 1 else "package-lock.json"
lock = json.load(open(path))
pkgs = lock["packages"]
added = 0
for owner, meta in list(pkgs.items()):
    for dep, version in (meta.get("optionalDependencies") or {}).items():
        key = f"node_modules/{dep}"
        if key in pkgs:
            continue
        if dep.startswith("@unrs/resolver-binding-"):
            plat, license_ = dep.rsplit("resolver-binding-", 1)[1], "MIT"
        elif dep.startswith("@install-binary/"):
            plat, license_ = "-".join(dep.split("-")[-2:]), meta.get("license", "MIT")
        else:
            continue
        parts = plat.split("-")
        os_name = {"darwin": "darwin", "win32": "win32", "freebsd": "freebsd", "android": "android", "openharmony": "openharmony"}.get(parts[0], parts[0])
        cpu = parts[1]
        entry = {"version": version, "cpu": [cpu], "dev": meta.get("dev", False), "license": license_, "optional": True, "os": [os_name]}
        if re.search(r"-(gnu|gnueabihf)$", plat):
            entry["libc"] = ["glibc"]
        elif re.search(r"-(musl|musleabihf)$", plat):
            entry["libc"] = ["musl"]
        if not entry["dev"]:
            del entry["dev"]
        pkgs[key] = entry
        added += 1
lock["packages"] = dict(sorted(pkgs.items(), key=lambda kv: (kv[0] != "", kv[0])))
json.dump(lock, open(path, "w"), indent=2)
open(path, "a").write("\n")
print(f"added {added} platform entries")
