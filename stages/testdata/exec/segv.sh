#!/bin/sh
# Dies of a segmentation fault, as a crashing compiler would.
echo "about to crash" >&2
kill -SEGV $$
