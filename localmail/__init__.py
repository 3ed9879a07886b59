"""The local mailbox of `make run`: the mail the site sent, read in the browser, and replies typed there sent to the
inbound mail handler over SMTP, as a real reply would be. Mounted only when LOCAL_MAILBOX_DIR is set."""
