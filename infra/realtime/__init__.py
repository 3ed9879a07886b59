"""The realtime plumbing under Channels: the channel layer, the socket loop and the socket middleware."""
