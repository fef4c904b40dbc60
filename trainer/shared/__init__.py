"""What every feature uses and none owns (docs/architecture.md): it imports no feature package."""
