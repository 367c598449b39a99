"""Game-agnostic protocol layer: viewers, visibility, projections, events, errors."""
