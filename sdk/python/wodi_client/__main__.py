import sys

from wodi_client.cli import main

sys.exit(main())
