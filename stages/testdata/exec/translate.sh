#!/bin/sh
# A toy translator under the JSON protocol: it reads the module's .ll (from
# an earlier stage's artifact) and calls every air.* function the module
# declares unhandled.
ops=$(grep -o '^declare [^@]*@air\.[A-Za-z0-9_.]*' "$1" | sed 's/.*@//' | sort -u)
if [ -z "$ops" ]; then
  echo '{"status": "passed", "features": ["toy.no-air-calls"]}'
  exit 0
fi
missing=""
features=""
for op in $ops; do
  missing="$missing{\"code\": \"translate/unhandled-intrinsic\", \"detail\": \"$op\"},"
  features="$features\"$op\","
done
first=$(echo "$ops" | head -n 1)
printf '{"status": "failed", "code": "translate/unhandled-intrinsic", "detail": "%s", "missing": [%s], "features": [%s]}\n' \
  "$first" "${missing%,}" "${features%,}"
