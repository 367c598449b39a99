"""An MCP server (stdio, the official `mcp` SDK) that plays Wodi games through the REST API: `python -m app.mcp`."""
