/** The conformance scenarios (suite.ts) through the front door frontDoors/nativePython.ts. */
import { nativePython } from "./frontDoors/nativePython";
import { conformanceSuite } from "./suite";

conformanceSuite(nativePython);
