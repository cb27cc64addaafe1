import type { Kafka } from 'kafkajs';
import { CASH_IN_TOPIC } from '@pix/contracts';

/** Where each partition of a topic ends now (its high watermarks). */
export type TopicEnd = { partition: number; offset: string }[];

export async function topicEnd(kafka: Kafka, topic = CASH_IN_TOPIC): Promise<TopicEnd> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, offset: p.high }));
  } finally {
    await admin.disconnect();
  }
}

/**
 * A group that never committed on `topic` starts at `end` instead of the topic's beginning (what
 * a new group otherwise reads); a group with commits keeps them. Answers whether it moved it.
 * Run before the group's first join: offsets of a group with members cannot be set.
 */
export async function startNewGroupAt(kafka: Kafka, groupId: string, end: TopicEnd, topic = CASH_IN_TOPIC): Promise<boolean> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    if (!committed || committed.partitions.some((p) => p.offset !== '-1')) return false;
    await admin.setOffsets({ groupId, topic, partitions: end });
    return true;
  } finally {
    await admin.disconnect();
  }
}
