"""Wodi: a Social Game Protocol v1 server for hidden-information party games."""
