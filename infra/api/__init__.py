"""The API kit every app's REST views use: the error envelope, fields, schema helpers, parsers and limits."""
