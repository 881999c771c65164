"""Checking a reply while the agent runs, before anyone acts on it: `check_reply` (the findings
of one reply, the reply with its repairs, the calls recovered from it, ready to run) and what to
tell the model when it must try again (`reasons`).

It composes the detectors and the repairs the scans use, on a session of one reply built from
what a loop holds (the reply's text, its calls, their results); nothing is read or written.
"""
