"""The welcome page, and the health probe load balancers ask."""
