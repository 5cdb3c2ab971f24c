"""Settings shared by every test."""

from hypothesis import settings

# Timing is a benchmark's business: on a loaded 2-core CI machine a first call that fills a cache can
# exceed hypothesis' per-example deadline and fail a correct property, so no deadline here.
settings.register_profile("tablewatch", deadline=None)
settings.load_profile("tablewatch")
