"""Play by email: the notifications (turn, offers, reminders, digests), their summaries and the signed links."""
