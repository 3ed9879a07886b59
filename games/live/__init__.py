"""The live table's transport: the socket frames each seat receives, who is at the table (presence), the bots' pace."""
