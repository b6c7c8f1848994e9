/** The conformance scenarios (suite.ts) through the front door frontDoors/nativeJava.ts. */
import { nativeJava } from "./frontDoors/nativeJava";
import { conformanceSuite } from "./suite";

conformanceSuite(nativeJava);
