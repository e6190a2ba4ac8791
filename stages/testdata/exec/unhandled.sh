#!/bin/sh
# Refuses three air ops (one twice) and names a feature, as a translator would.
echo "feature: air.fma.f32"
echo "feature: air.wg.barrier"
echo "warning: something harmless" >&2
echo "unhandled air op: air.foo" >&2
echo "unhandled air op: air.bar" >&2
echo "unhandled air op: air.foo" >&2
echo "unhandled air op: air.baz" >&2
exit 1
