import { Controller } from '@nestjs/common';
import { NotifierIntakeController } from '@pix/messaging';
import { Public } from '../auth/auth-context';

/**
 * The notifier's intake as local mode with KAFKA_BROKERS runs it in the API (group NOTIFIER_GROUP_ID).
 * As with the operator routes, the library's controller cannot know the API's decorators: this
 * only keeps the API's token guard, which reads HTTP requests, away from a Kafka handler.
 */
@Public()
@Controller()
export class LocalIntakeController extends NotifierIntakeController {}
