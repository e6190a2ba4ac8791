#!/bin/sh
# Speaks the JSON protocol: one object on stdout, an artifact in the work directory (the cwd).
echo "nir for $1" > shader.nir
echo "log lines go to stderr" >&2
cat <<JSON
{"status": "failed", "code": "translate/unhandled-intrinsic", "detail": "air.foo",
 "message": "2 intrinsics not handled",
 "missing": [{"code": "translate/unhandled-intrinsic", "detail": "air.foo"},
             {"code": "translate/unhandled-intrinsic", "detail": "air.bar"}],
 "features": ["air.foo", "air.bar", "air.fma.f32"],
 "artifacts": {"nir": "shader.nir"}}
JSON
