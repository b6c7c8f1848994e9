/**
 * How the dynamic provider words its advice: its programs are TypeScript (or JavaScript), so the
 * receiver advice can point at this package's own `verifySignature`, which takes an array of
 * Signatures. Settings are named as for every Pulumi front door.
 */
import { PULUMI_WORDING, type FrontDoorWording } from "../core/settingWording";

/** The dynamic provider's wording: Pulumi's, with receiver advice for TypeScript programs. */
export const DYNAMIC_WORDING: FrontDoorWording = {
  ...PULUMI_WORDING,
  receiverAdvice:
    "receivers must accept both the old and the new Signature during the overlap (verifySignature with an array)",
};
