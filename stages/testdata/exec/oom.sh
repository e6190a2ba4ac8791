#!/bin/sh
# Allocates 1 GiB under a smaller memory limit.
exec python3 -c 'x = bytearray(1 << 30)'
