"""Services of the reviews app. Audit and permission plumbing lives in `reviews.audit`."""

from reviews.services.degraded import block_apply, block_lift, site_switch_set
from reviews.services.desk import review_assign, review_comment_add

__all__ = ["block_apply", "block_lift", "review_assign", "review_comment_add", "site_switch_set"]
