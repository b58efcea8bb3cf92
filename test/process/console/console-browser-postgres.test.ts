import { describeConsoleInChromium } from './console-browser-suite.js';

describeConsoleInChromium('postgres');
