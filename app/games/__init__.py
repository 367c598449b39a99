"""Pure game rules. Nothing here imports the database, the web layer or asyncio."""
