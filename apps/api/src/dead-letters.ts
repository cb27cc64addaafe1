import { CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC } from '@pix/contracts';
import { CASH_IN_CONTRACT, createKafka, KAFKA_PUBLISH_RETRY, KafkaLogs, readDeadLetters, replayDeadLetters } from '@pix/messaging-kafka';
import { ConfigError, loadDeadLettersConfig } from './config/config';
import { EXIT, failureLine, plainKafkaSink, runDeadLetters, USAGE } from './messaging/dead-letters/cli';

/** Set once the configuration is read: the failure line names them. */
let brokers: string[] = [];

/**
 * Operator command for the cash-in dead-letter topic (ADR 16): list what the consumers refused
 * and publish chosen messages to the cash-in topic again once the cause is fixed.
 *   KAFKA_BROKERS=host:9092 npm run dead-letters -- list | replay --all | replay 0/17 2/3
 */
async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    console.log(USAGE);
    return argv.length === 0 ? EXIT.usage : EXIT.ok;
  }
  const config = loadDeadLettersConfig(process.env);
  brokers = config.kafkaBrokers;
  // An operator waits at the terminal: a cluster out of reach fails in seconds, not after the
  // consumers' minute of retries (a replay cut short says what to replay again, exit 3).
  const kafka = createKafka(config.kafkaBrokers, 'pix-dead-letters', KAFKA_PUBLISH_RETRY, new KafkaLogs(plainKafkaSink((l) => console.error(l))));
  // One verdict for the listing and the replay: the contract every consumer reads the topic with.
  const contract = CASH_IN_CONTRACT[CASH_IN_TOPIC];
  return runDeadLetters(
    argv,
    {
      read: () => readDeadLetters(kafka, CASH_IN_DEAD_LETTER_TOPIC),
      // Progress on stderr after each send (a replay of thousands takes a while), the result on stdout.
      replay: (letters) => {
        let sent = 0;
        return replayDeadLetters(kafka, letters, CASH_IN_DEAD_LETTER_TOPIC, CASH_IN_TOPIC, contract, (some) => console.error(`published ${(sent += some.length)} (of the ${letters.length} asked)`));
      },
      // A replay is a new record stamped now: judged as of now.
      check: (letter) => contract.parse(letter.value, new Date()).error,
    },
    (l) => console.log(l),
    (l) => console.error(l),
  );
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : failureLine(error, brokers));
    process.exit(error instanceof ConfigError ? EXIT.usage : 3);
  },
);
