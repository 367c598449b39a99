"""HTTP routers: parse, authenticate, call a service, render."""
