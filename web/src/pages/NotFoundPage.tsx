import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';

/** An address the console has no screen for: said so, with the way back, rather than some other screen shown in its place. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" maw={560} data-page="not-found">
      <Title order={1} size="h2">Page not found</Title>
      <Text>
        The console has no page at <Text span ff="monospace" style={{ wordBreak: 'break-all' }}>{pathname}</Text>. The address
        may be mistyped, or the link that led here may be out of date.
      </Text>
      <Text>
        Go to <Anchor component={Link} to="/files" underline="always">your files</Anchor>, or choose a place in the navigation.
      </Text>
    </Stack>
  );
}
