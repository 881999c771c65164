"""Hostile input never crashes, hangs or floods: odd values where the format wants a string, lone
surrogates, terminal escapes in what is printed, pipes and devices, and options out of range each
end as a normal report or as one line and exit 2."""
