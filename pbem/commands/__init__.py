"""The command line: `flask --app pbem <command>`, the operator's console and the servers."""
