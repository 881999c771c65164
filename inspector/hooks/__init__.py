"""Checks that run inside an agent while it works, before its reply reaches the person: hooks.

An agent that offers a hook at the end of each reply (Claude Code's `Stop` and `SubagentStop`)
runs `inspector hook claude-code`, which reads what the transcript gained since its last call,
runs the detectors of a fabricated result on the last reply, and asks the agent to go on with a
reason written for the model (`stop_hook`). Gemini CLI's `AfterAgent`, Qwen Code's `Stop` and
`SubagentStop`, Codex's `Stop` and `SubagentStop` and GitHub Copilot CLI's `Stop` run `inspector
hook gemini-cli`, `qwen-code`, `codex` and `copilot-cli`, which read those agents' chat files the
same way (`chat_file_hook`); what every hook does with the findings is `verdict`. `install` merges
the hook into the agent's settings (Copilot CLI's: a hooks file of its own, `copilot_hooks_file`)
and takes it out again.

An entry point beside `inspector.cli`: it composes the readers and the detectors, never the app.
Its import path is kept short, as it runs at the end of every reply: the reader and the detectors
are imported only when a reply may hold a finding (`screen` for Claude Code's transcript,
`chat_screen` for the other agents' chat files), and then only that agent's reader and the
detectors of the kinds checked (`reply_findings`), not every format and detector.
"""
