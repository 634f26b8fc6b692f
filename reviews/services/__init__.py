"""Services of the reviews app. Audit and permission plumbing lives in `reviews.audit`."""

from reviews.services.degraded import block_apply, block_lift, site_switch_set

__all__ = ["block_apply", "block_lift", "site_switch_set"]
