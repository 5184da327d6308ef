// The editor's two dialogs: a config's comment (the server name apps show) and the confirmation before removing.
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SOURCES } from './strings';
import type { Source } from './queries';

interface CommentProps {
  source: Source | null;
  name: string;
  onSave(comment: string): void;
  onClose(): void;
}

export function CommentDialog({ source, name, onSave, onClose }: CommentProps) {
  const { t } = useTranslation(SOURCES);
  return (
    <Modal
      opened={source !== null}
      onClose={onClose}
      title={t('comment.title', { name })}
      closeButtonProps={{ 'aria-label': t('comment.cancel') }}
    >
      {/* Keyed by the source so the field starts from that source's comment each time. */}
      {source && <CommentForm key={source.id} initial={source.comment ?? ''} onSave={onSave} onClose={onClose} />}
    </Modal>
  );
}

function CommentForm({
  initial,
  onSave,
  onClose,
}: {
  initial: string;
  onSave(comment: string): void;
  onClose(): void;
}) {
  const { t } = useTranslation(SOURCES);
  const [value, setValue] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(value.trim());
      }}
    >
      <Stack>
        <TextInput
          label={t('comment.label')}
          description={t('comment.hint')}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          maxLength={256}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('comment.cancel')}
          </Button>
          <Button type="submit">{t('comment.save')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

interface RemoveProps {
  name: string;
  opened: boolean;
  onConfirm(): void;
  onClose(): void;
}

export function RemoveDialog({ name, opened, onConfirm, onClose }: RemoveProps) {
  const { t } = useTranslation(SOURCES);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('remove.title', { name })}
      closeButtonProps={{ 'aria-label': t('remove.cancel') }}
    >
      <Stack>
        <Text>{t('remove.body')}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('remove.cancel')}
          </Button>
          <Button color="red.9" onClick={onConfirm}>
            {t('remove.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
