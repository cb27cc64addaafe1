/** node tools/launch.js test/bench/summarize-cpuprofile.js <file.cpuprofile> [top] */
import { renderSummary, summarizeFile } from './cpuprofile-summary';

const [file, top] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/launch.js test/bench/summarize-cpuprofile.js <file.cpuprofile> [top]');
  process.exit(2);
}
console.log(renderSummary(summarizeFile(file), Number(top ?? 20)));
