import { Controller } from '@nestjs/common';
import { NotificationsController } from '@pix/messaging';
import { Public } from '../auth/auth-context';

/**
 * The notifier's operator routes as local mode mounts them in the API: open without a token
 * (local mode serves only localhost). The library's controller cannot know the API's decorators,
 * so this adds only the marker; routes and behaviour are the library's.
 */
@Public()
@Controller('notifier')
export class LocalNotificationsController extends NotificationsController {}
