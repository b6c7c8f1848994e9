/** Reading a drift review (version 3) as the end-to-end tests assert on it. */
import type { Finding, FindingClass, Review } from "../../drift";
import { parseReview } from "./reviewJson";

/** The review `webhook-subscriptions drift --format json` printed, checked against the reference page's schema. */
export function reviewOf(stdout: string): Review {
  return parseReview(stdout);
}

/** The resource a finding is about: its URN's last part, the Terraform address, or null for an unmanaged subscription. */
export function resourceOf(f: Finding): string | null {
  return f.owner ? f.owner.address.slice(f.owner.address.lastIndexOf("::") + 2) : null;
}

/** The findings of `cls`, in the review's order. */
export function findingsOf(review: Review, cls: FindingClass): Finding[] {
  return review.findings.filter((f) => f.class === cls);
}
