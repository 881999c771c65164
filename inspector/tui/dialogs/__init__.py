"""The app's modal dialogs, one a module: a yes/no question, a question with several answers,
where to export (a file, or a server's database), and what to copy."""
