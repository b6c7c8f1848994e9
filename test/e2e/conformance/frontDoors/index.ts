/** Every front door the conformance scenarios run against; a new one is one more file and one more entry. */
import type { FrontDoor } from "../frontDoor";
import { dynamicTs } from "./dynamicTs";
import { nativeJava } from "./nativeJava";
import { nativePython } from "./nativePython";
import { nativeYaml } from "./nativeYaml";

export const FRONT_DOORS: readonly FrontDoor[] = [dynamicTs, nativeYaml, nativePython, nativeJava];
