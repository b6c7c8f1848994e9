/** The conformance scenarios (suite.ts) through the front door frontDoors/dynamicTs.ts. */
import { dynamicTs } from "./frontDoors/dynamicTs";
import { conformanceSuite } from "./suite";

conformanceSuite(dynamicTs);
