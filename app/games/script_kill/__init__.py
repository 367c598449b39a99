"""剧本杀 (script_kill): seed 002 murder mystery — script packages as data, a pure engine."""
