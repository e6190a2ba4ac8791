#!/bin/sh
# Hangs, with a child in its process group: the stage must kill both at its timeout.
sleep 300 &
wait
