"""Small helpers every stage uses: text made safe to show, lenient JSON, the garbage collector paused."""
