"""Accounts: sign-up, log-in, log-out and password reset, throttled; a guest's records
following them into their account; guests' data expiring."""
