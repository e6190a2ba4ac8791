#!/bin/sh
# Fails with words no rule knows: the default code and the last lines.
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "line $i" >&2; done
echo "fatal: the last word" >&2
exit 3
