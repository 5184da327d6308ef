// The console's "are you sure?" dialog before a delete or a new token: a title, what will happen, cancel or go ahead.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface ConfirmText {
  title: string;
  body: string;
  confirm: string;
  cancel: string;
}

/** Open while `text` is set; Escape, the close button and Cancel all call `onClose`. */
export function ConfirmDialog({
  text,
  onConfirm,
  onClose,
}: {
  text: ConfirmText | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={text !== null}
      onClose={onClose}
      title={text?.title}
      closeButtonProps={{ 'aria-label': text?.cancel ?? '' }}
    >
      <Stack>
        <Text>{text?.body}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {text?.cancel}
          </Button>
          <Button onClick={onConfirm}>{text?.confirm}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
