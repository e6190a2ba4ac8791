#!/bin/sh
# Passes without writing the artifact it is declared to write.
exit 0
