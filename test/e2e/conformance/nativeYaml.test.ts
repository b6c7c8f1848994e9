/** The conformance scenarios (suite.ts) through the front door frontDoors/nativeYaml.ts. */
import { nativeYaml } from "./frontDoors/nativeYaml";
import { conformanceSuite } from "./suite";

conformanceSuite(nativeYaml);
